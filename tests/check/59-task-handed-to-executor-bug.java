// spec: lock.cfg
// expect: violation
// word: $1.lock()
// why: a closure handed to library code (an executor) may be called by it; on one of
// its paths the task returns with the lock held.
class Main {
    public static void main(String[] args) {
        ReentrantLock l = new ReentrantLock();
        java.util.concurrent.Executor ex = java.util.concurrent.Executors.newSingleThreadExecutor();
        ex.execute(() -> { l.lock(); if (*) return; l.unlock(); });
    }
}
