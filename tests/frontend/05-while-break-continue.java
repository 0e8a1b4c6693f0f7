// spec: lock.cfg
class Main {
    public static void main(String[] args) {
        ReentrantLock l = new ReentrantLock();
        int i = 0;
        while (i < 10) {
            i++;
            if (i == 3) continue;
            l.lock();
            if (i == 7) {
                l.unlock();
                break;
            }
            l.unlock();
        }
    }
}
