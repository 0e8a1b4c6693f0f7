// spec: lock.cfg
// expect: violation
// word: $1.lock()
// why: the `break` leaves the loop after lock() and before unlock(); the shortest
// execution doing so is the first iteration: `lock`. Executions without the break give
// (lock unlock)^k, which is fine.
class Main {
    public static void main(String[] args) {
        ReentrantLock l = new ReentrantLock();
        while (*) {
            l.lock();
            if (*) {
                break;
            }
            l.unlock();
        }
    }
}
