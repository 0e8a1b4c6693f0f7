// spec: lock.cfg
// expect: violation
// word: $1.lock()
// why: a library call inside a try whose catch takes a checked exception it may throw
// (`IOException` from reading a file) may throw it: the handler then runs, and main
// ends with the lock held.
class Main {
    public static void main(String[] args) {
        ReentrantLock l = new ReentrantLock();
        l.lock();
        try {
            java.io.FileInputStream in = new java.io.FileInputStream("x");
            in.read();
            l.unlock();
        } catch (java.io.IOException e) {
            System.err.println("failed");
        }
    }
}
