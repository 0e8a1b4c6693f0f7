// spec: lock.cfg
// expect: unknown vacuous
// runs: none
// why: the static initialiser dereferences null, so no execution reaches main's end:
// there is no completed execution, hence no word outside the spec (only completed
// executions produce words; a call on null does not return). Every completed execution
// follows the protocol only because there is none: the answer says so (vacuous) and
// names the dereference, instead of `verified`.
class Main {
    static final String TAG = ((Object) null).toString();

    public static void main(String[] args) {
        ReentrantLock l = new ReentrantLock();
        l.lock();
    }
}
