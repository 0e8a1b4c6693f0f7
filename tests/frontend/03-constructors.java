// spec: lock.cfg
class Guard {
    static int created = 0;
    ReentrantLock lock;
    int depth = 1;
    boolean open;

    Guard() {
        this(new ReentrantLock());
    }

    Guard(ReentrantLock l) {
        lock = l;
        created++;
    }

    void enter() { lock.lock(); depth = depth + 1; }
    void exit() { depth--; lock.unlock(); }

    public static void main(String[] args) {
        Guard g = new Guard();
        g.enter();
        g.exit();
        Guard h = new Guard(g.lock);
        h.enter();
        h.exit();
    }
}
