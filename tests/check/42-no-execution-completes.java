// spec: lock.cfg
// expect: verified
// runs: none
// why: the static initialiser dereferences null, so no execution reaches main's end:
// there is no completed execution, hence no word outside the spec (only completed
// executions produce words; a call on null does not return).
class Main {
    static final String TAG = ((Object) null).toString();

    public static void main(String[] args) {
        ReentrantLock l = new ReentrantLock();
        l.lock();
    }
}
