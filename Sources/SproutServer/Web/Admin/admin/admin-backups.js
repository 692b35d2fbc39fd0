// While a backup runs, the page shows its progress by reloading itself every two seconds (the progress is read
// from the database, so any server process answers); it stops once no job is running.
const running = document.querySelector("#backup-jobs[data-running]");
if (running) {
  setTimeout(() => location.reload(), 2000);
}
