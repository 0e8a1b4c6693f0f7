// spec: lock.cfg
class Main {
    public static void main(String[] args) {
        ReentrantLock l = new ReentrantLock();
        int x = Input.readInt();
        if (x < 0) {
            return;
        } else if (x == 0) {
            l.lock();
            l.unlock();
        } else if (x < 10) {
            l.lock();
            l.lock();
            l.unlock();
            l.unlock();
        } else {
            ;
        }
    }
}
