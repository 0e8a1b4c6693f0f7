// spec: lock.cfg
// expect: violation
// word: $1.lock()
// why: the early return is taken only when the external Sensor.read() returns exactly 3;
// then the lock stays open (`lock`). For every other value the word is lock unlock.
class Main {
    public static void main(String[] args) {
        ReentrantLock l = new ReentrantLock();
        int code = Sensor.read();
        l.lock();
        if (code == 3) {
            return;
        }
        l.unlock();
    }
}
