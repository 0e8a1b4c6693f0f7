// spec: lock.cfg
class Main {
    static ReentrantLock shared = new ReentrantLock();
    static int holds;
    static {
        holds = 0;
    }

    static void enter() { shared.lock(); holds++; }
    static void leave() { holds--; shared.unlock(); }

    public static void main(String[] args) {
        Main.enter();
        leave();
        assertZero(Main.holds);
    }

    static void assertZero(int x) { }
}
