// spec: lock.cfg
// expect: verified
// why: Pool.get() is external: it returns an arbitrary value, but it is called once and
// the same reference is locked and unlocked (non-null, since calls on it assume so), so
// whatever object it is sees lock unlock.
class Main {
    public static void main(String[] args) {
        ReentrantLock l = Pool.get();
        l.lock();
        Log.info("working");
        l.unlock();
    }
}
