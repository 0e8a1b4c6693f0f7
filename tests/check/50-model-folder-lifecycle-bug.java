// spec: wakelock.cfg
// expect: violation
// word: $1.acquire()
// why: several files in one text, each from a marker line `// -- path --` on: the
// activity of 48 as Android code, its lifecycle, and a PowerManager model in its own
// package. The wake lock taken in onStart is held when the process dies after onPause.
// -- app/src/com/example/player/PlayerActivity.java --
package com.example.player;

import android.app.Activity;
import android.content.Context;
import android.os.Bundle;
import android.os.PowerManager;

public class PlayerActivity extends Activity {
    private PowerManager.WakeLock wakeLock;
    private boolean playing;

    @Override
    protected void onCreate(Bundle savedInstanceState) {
        super.onCreate(savedInstanceState);
        PowerManager pm = (PowerManager) getSystemService(Context.POWER_SERVICE);
        wakeLock = pm.newWakeLock(PowerManager.SCREEN_DIM_WAKE_LOCK, "player");
        playing = savedInstanceState != null;
    }

    @Override
    protected void onStart() {
        super.onStart();
        wakeLock.acquire();
    }

    @Override
    protected void onResume() {
        super.onResume();
        playing = true;
    }

    @Override
    protected void onPause() {
        playing = false;
        super.onPause();
    }

    @Override
    protected void onStop() {
        if (wakeLock.isHeld()) {
            wakeLock.release();
        }
        super.onStop();
    }
}
// -- app/src/com/example/player/Lifecycle.java --
package com.example.player;

/** The documented lifecycle (what `--harness android-activity` generates). */
class Lifecycle {
    public static void main(String[] args) {
        PlayerActivity activity = new PlayerActivity();
        activity.onCreate(null);
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
// -- models/android/os/PowerManager.java --
package android.os;

public class PowerManager {
    public static final int SCREEN_DIM_WAKE_LOCK = 6;

    public WakeLock newWakeLock(int levelAndFlags, String tag) {
        return new WakeLock();
    }

    public static class WakeLock {
        private int count = 0;

        public void acquire() {
            count++;
        }

        public void release() {
            if (count > 0) {
                count--;
            }
        }

        public boolean isHeld() {
            return count > 0;
        }
    }
}
