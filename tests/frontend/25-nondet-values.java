// spec: lock.cfg
class Main {
    public static void main(String[] args) {
        ReentrantLock l = new ReentrantLock();
        int n = *;
        boolean b = *;
        while (*) {
            if (b) l.lock();
            n--;
            if (b) l.unlock();
        }
        take(*, n);
    }

    static void take(int x, int y) { }
}
