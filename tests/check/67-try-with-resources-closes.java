// spec: lock.cfg
// expect: verified
// why: try-with-resources closes its resources in reverse order on every way out, the
// thrown exception included; `close()` unlocks what the constructor locked.
class Guard implements AutoCloseable {
    ReentrantLock l;
    Guard(ReentrantLock l) { this.l = l; l.lock(); }
    public void close() { l.unlock(); }
}
class Main {
    public static void main(String[] args) {
        ReentrantLock l = new ReentrantLock();
        try (Guard g = new Guard(l); Guard h = new Guard(l)) {
            if (*) { throw new IllegalStateException(); }
        } catch (IllegalStateException e) {
            System.out.println("x");
        }
    }
}
