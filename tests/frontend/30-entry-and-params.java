// spec: lock.cfg
class Service {
    static ReentrantLock lock;

    static void handle(ReentrantLock given, int requests) {
        lock = given;
        while (requests > 0) {
            lock.lock();
            requests--;
            lock.unlock();
        }
    }

    public static void main(String[] args) {
        handle(new ReentrantLock(), args.length);
    }
}
