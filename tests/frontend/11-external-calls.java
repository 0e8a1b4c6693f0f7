// spec: lock.cfg
import java.util.Random;

class Main {
    public static void main(String[] args) {
        Random r = new Random();
        ReentrantLock l = LockFactory.create();
        int n = r.nextInt(10);
        if (n > 5) {
            l.lock();
            Logger.log("locked", n);
            l.unlock();
        }
    }
}
