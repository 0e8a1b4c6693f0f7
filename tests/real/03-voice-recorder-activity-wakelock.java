// spec: wakelock
// expect: verified
// harness: android-activity
// why: the partial wake lock is acquired in onResume and released in onPause, so it is
// never held when Android may kill the process; the click listener and the lambda only call
// framework code, which the analysis may skip.
package com.example.recorder;

import android.app.Activity;
import android.content.Context;
import android.content.Intent;
import android.os.Bundle;
import android.os.PowerManager;
import android.util.Log;
import android.view.View;
import android.widget.Button;
import android.widget.TextView;

public class RecorderActivity extends Activity {
    private static final String TAG = "RecorderActivity";

    private PowerManager.WakeLock wakeLock;
    private TextView statusView;
    private Button settingsButton;
    private long startedAtMillis;

    @Override
    protected void onCreate(Bundle savedInstanceState) {
        super.onCreate(savedInstanceState);
        setContentView(R.layout.activity_recorder);
        statusView = (TextView) findViewById(R.id.status);
        settingsButton = (Button) findViewById(R.id.settings);

        PowerManager pm = (PowerManager) getSystemService(Context.POWER_SERVICE);
        wakeLock = pm.newWakeLock(PowerManager.PARTIAL_WAKE_LOCK, "recorder:capture");

        settingsButton.setOnClickListener(new View.OnClickListener() {
            @Override
            public void onClick(View v) {
                Log.d(TAG, "opening settings");
                v.getContext().startActivity(new Intent(v.getContext(), SettingsActivity.class));
            }
        });
    }

    @Override
    protected void onResume() {
        super.onResume();
        wakeLock.acquire();
        startedAtMillis = System.currentTimeMillis();
        statusView.post(() -> Log.i(TAG, "recording resumed"));
    }

    @Override
    protected void onPause() {
        wakeLock.release();
        long elapsed = System.currentTimeMillis() - startedAtMillis;
        Log.i(TAG, "recorded for " + elapsed + " ms");
        super.onPause();
    }

    @Override
    protected void onDestroy() {
        Log.d(TAG, "destroyed");
        super.onDestroy();
    }
}

class SettingsActivity extends Activity {
    @Override
    protected void onCreate(Bundle savedInstanceState) {
        super.onCreate(savedInstanceState);
        setContentView(R.layout.activity_settings);
    }
}
