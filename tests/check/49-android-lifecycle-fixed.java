// spec: wakelock.cfg
// expect: verified
// why: the fix of the paper's Android finding (48): the wake lock is acquired in onResume
// and released in onPause, so wherever Android may kill the process (after onPause or
// onStop) and when the activity finishes, every acquire has been released.
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
    }

    void onResume() {
        wakeLock.acquire();
        playing = true;
    }

    void onPause() {
        playing = false;
        wakeLock.release();
    }

    void onStop() {
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
