// spec: lock.cfg
// expect: verified
// why: the task handed to the executor locks and unlocks in try/finally; however often
// the executor runs it, each run is lock unlock.
class Main {
    public static void main(String[] args) {
        ReentrantLock l = new ReentrantLock();
        java.util.concurrent.Executor ex = java.util.concurrent.Executors.newSingleThreadExecutor();
        ex.execute(() -> { l.lock(); try { System.out.println("x"); } finally { l.unlock(); } });
    }
}
