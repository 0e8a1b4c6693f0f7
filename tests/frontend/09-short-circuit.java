// spec: lock.cfg
class Main {
    static boolean ready(int x) { return x > 0; }

    public static void main(String[] args) {
        ReentrantLock l = new ReentrantLock();
        int a = Input.readInt();
        int b = Input.readInt();
        if (a > 0 && (b < 0 || ready(a + b))) {
            l.lock();
        }
        boolean both = a > 0 && b > 0;
        if (!both || a == b) {
            l.unlock();
        }
    }
}
