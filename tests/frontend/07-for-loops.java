// spec: lock.cfg
class Main {
    public static void main(String[] args) {
        ReentrantLock l = new ReentrantLock();
        for (int i = 0, j = 10; i < j; i++, j--) {
            l.lock();
        }
        for (int k = 0; k < 10; k += 1) {
            l.unlock();
        }
        for (;;) {
            if (*) break;
        }
    }
}
