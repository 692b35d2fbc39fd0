/// Every service's migrations, in the order they must run. A new service appends its own here.
public enum SproutMigrations {
    public static var all: [SQLMigration] {
        TodoMigrations.all + AccountMigrations.all + CommunityMigrations.all + MarketMigrations.all + BoardMigrations.all + DiaryMigrations.all
            + AccountMigrations.later + MailMigrations.all + AdminMigrations.all + EventMigrations.all
            + CommunityMigrations.later
    }
}
