package com.example.player;

import android.app.Activity;
import android.content.Context;
import android.os.Bundle;
import android.os.PowerManager;

/** Keeps the screen on while a video plays (the wake lock is taken when visible). */
public class PlayerActivity extends Activity {
    private static final String TAG = "player";

    private PowerManager.WakeLock wakeLock;
    private boolean playing;

    @Override
    protected void onCreate(Bundle savedInstanceState) {
        super.onCreate(savedInstanceState);
        PowerManager pm = (PowerManager) getSystemService(Context.POWER_SERVICE);
        wakeLock = pm.newWakeLock(PowerManager.SCREEN_DIM_WAKE_LOCK, TAG);
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
