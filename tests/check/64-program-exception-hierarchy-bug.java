// spec: lock.cfg
// expect: violation
// word: $1.lock()
// why: `DbException` extends `AppException`, so the catch of the supertype catches it
// and returns with the lock held.
class AppException extends Exception {}
class DbException extends AppException {}
class Main {
    static void query(int x) throws DbException {
        if (x > 3) { throw new DbException(); }
    }
    public static void main(String[] args) {
        ReentrantLock l = new ReentrantLock();
        l.lock();
        try {
            query(*);
        } catch (AppException e) {
            return;
        }
        l.unlock();
    }
}
