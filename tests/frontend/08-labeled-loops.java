// spec: lock.cfg
class Main {
    public static void main(String[] args) {
        ReentrantLock l = new ReentrantLock();
        outer:
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                if (j == i) continue outer;
                if (i + j > 3) break outer;
                l.lock();
                l.unlock();
            }
        }
    }
}
