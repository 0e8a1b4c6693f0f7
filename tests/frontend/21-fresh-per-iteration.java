// spec: lock.cfg
class Main {
    public static void main(String[] args) {
        int n = Input.readInt();
        for (int i = 0; i < n; i++) {
            ReentrantLock l = new ReentrantLock();
            l.lock();
            if (i % 2 == 0) {
                l.unlock();
            } else {
                l.unlock();
            }
        }
    }
}
