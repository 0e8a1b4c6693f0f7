// spec: wakelock.cfg
// expect: violation
// word: $1.acquire()
// exit: 68
// why: the paper's Android finding: the activity acquires its wake lock in onStart and
// releases it in onStop, but Android may kill the process after onPause, and the run ends
// with the lock held. main walks the activity lifecycle the way `cfp check --harness
// android-activity` does (tests/projects/android-wakelock-leak is the same as a source tree).
class WakeLock {
    int count = 0;

    void acquire() {
        count++;
    }

    void release() {
        count--;
    }

    boolean isHeld() {
        return count > 0;
    }
}

class PlayerActivity {
    WakeLock wakeLock;
    boolean playing;

    void onCreate() {
        wakeLock = new WakeLock();
    }

    void onStart() {
        wakeLock.acquire();
    }

    void onResume() {
        playing = true;
    }

    void onPause() {
        playing = false;
    }

    void onStop() {
        if (wakeLock.isHeld()) {
            wakeLock.release();
        }
    }
}

class Main {
    // The documented lifecycle: onCreate, then rounds of onStart, onResume, (onPause,
    // onResume)*, onPause, onStop, and onRestart or onDestroy. After onPause or onStop the
    // process may be killed: the execution ends there.
    public static void main(String[] args) {
        PlayerActivity activity = new PlayerActivity();
        activity.onCreate();
        while (true) {
            activity.onStart();
            activity.onResume();
            activity.onPause();
            while (*) {
                activity.onResume();
                activity.onPause();
            }
            if (*) {
                return; // killed after onPause
            }
            activity.onStop();
            if (*) {
                return; // killed after onStop
            }
            if (*) {
                return; // onDestroy: the activity is finished
            }
        }
    }
}
