import Testing
@testable import SproutServer

/// A read-merge-write overtaken by other processes gives up only once its time *and* its tries are spent: on a
/// starved machine a few slow tries used to outlast the deadline alone and fail a PATCH or PUT that others merely
/// overtook (CI: `concurrentPatchesThroughTwoProcessesAllSucceed`, 503).
@Suite struct OvertakenWriteBudgetTests {
    @Test func aPassedDeadlineAloneDoesNotGiveUp() {
        var budget = OvertakenWrite.Budget(patience: .zero, minimumTries: 3)
        #expect(budget.overtaken() == false)
        #expect(budget.overtaken() == false)
        #expect(budget.overtaken() == true)
    }

    @Test func manyTriesWithinTheDeadlineDoNotGiveUp() {
        var budget = OvertakenWrite.Budget(patience: .seconds(600), minimumTries: 1)
        for _ in 0..<100 { #expect(budget.overtaken() == false) }
    }

    @Test func theDefaultsAreTenSecondsAndFiftyTries() {
        #expect(OvertakenWrite.patience == .seconds(10) && OvertakenWrite.minimumTries == 50)
    }
}
