// spec: wakelock.cfg
// expect: violation
// word: $1.setReferenceCounted(_) $1.acquire() $1.release() $1.acquire() $1.release()
// why: non-reference-counted mode with acquire, stop, acquire, stop: the model releases
// both times (count is 1 each time), giving setRC acquire release acquire release. The
// spec's NC grammar is strict (see wakelock.cfg): NC -> NA release needs
// NA = acquire release acquire, but every NA -> acquire NA release NA alternative puts a
// non-empty NA before the release, and NA -> acquire NA would need NA to start with
// release. So the (only) word is not in S, although it matches acquire^n release^m, m <= n.
class WakeLock {
    int count = 0;
    boolean refCounted = true;

    void setReferenceCounted(boolean value) {
        refCounted = value;
    }

    void acquire() {
        count++;
    }

    void release() {
        if (refCounted) {
            count--;
        } else {
            count = 0;
        }
    }

    boolean isHeld() {
        return count > 0;
    }
}

class Main {
    static void stop(WakeLock wl) {
        if (wl.isHeld()) {
            wl.release();
        }
    }

    public static void main(String[] args) {
        WakeLock wl = new WakeLock();
        wl.setReferenceCounted(false);
        wl.acquire();
        stop(wl);
        wl.acquire();
        stop(wl);
    }
}
