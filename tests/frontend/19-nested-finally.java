// spec: lock.cfg
class Main {
    static int work(ReentrantLock a, ReentrantLock b, int n) {
        a.lock();
        try {
            b.lock();
            try {
                for (int i = 0; i < n; i++) {
                    if (i == 2) break;
                    if (i == 4) return i;
                }
                return 0;
            } finally {
                b.unlock();
            }
        } catch (RuntimeException e) {
            return -1;
        } finally {
            a.unlock();
        }
    }

    public static void main(String[] args) {
        work(new ReentrantLock(), new ReentrantLock(), 5);
    }
}
