// spec: lock.cfg
class Main {
    public static void main(String[] args) {
        ReentrantLock a = new ReentrantLock();
        ReentrantLock b = new ReentrantLock();
        int x = Input.readInt();
        ReentrantLock chosen = x > 0 ? a : b;
        chosen.lock();
        (x > 0 ? a : b).unlock();
    }
}
