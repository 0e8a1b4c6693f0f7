// spec: lock.cfg
class Main {
    public static void main(String[] args) {
        ReentrantLock l = new ReentrantLock();
        int mode = Input.readInt();
        switch (mode) {
            case 0:
                l.lock();
            case 1:
                l.unlock();
                break;
            case 2, 3:
                break;
            default:
                return;
        }
    }
}
