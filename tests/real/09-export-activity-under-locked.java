// spec: wakelock
// expect: violation
// harness: android-activity
// max-iterations: 2
// why: the reference-counted wake lock is released in onPause() and again, "to be safe",
// in onDestroy(); after a pause the second release() has no matching acquire() (Android
// throws "WakeLock under-locked"). The handler may run the export task (which posts
// itself again) at any point after onResume(), and refinement does not settle the runs
// of the task in its first iterations (without the bug hunter, two iterations end
// `unknown`); the bug hunter finds the violation in the first.
package com.example.notes.export;

import android.app.Activity;
import android.content.Context;
import android.os.Bundle;
import android.os.Handler;
import android.os.Looper;
import android.os.PowerManager;
import android.util.Log;
import android.widget.ProgressBar;

public class ExportActivity extends Activity {
    private static final String TAG = "ExportActivity";

    private final Handler mainHandler = new Handler(Looper.getMainLooper());
    private PowerManager.WakeLock exportWakeLock;
    private ProgressBar progressBar;
    private ExportTask pendingTask;
    private int exportedNotes;

    @Override
    protected void onCreate(Bundle savedInstanceState) {
        super.onCreate(savedInstanceState);
        setContentView(R.layout.activity_export);
        progressBar = (ProgressBar) findViewById(R.id.export_progress);
        PowerManager powerManager = (PowerManager) getSystemService(Context.POWER_SERVICE);
        exportWakeLock = powerManager.newWakeLock(PowerManager.SCREEN_DIM_WAKE_LOCK, "notes:export");
        pendingTask = new ExportTask(getIntent().getStringExtra("folder"));
    }

    @Override
    protected void onResume() {
        super.onResume();
        exportWakeLock.acquire();
        mainHandler.post(pendingTask);
    }

    @Override
    protected void onPause() {
        mainHandler.removeCallbacks(pendingTask);
        exportWakeLock.release();
        super.onPause();
    }

    @Override
    protected void onDestroy() {
        // Make sure the screen can turn off again even if the export is still running.
        exportWakeLock.release();
        Log.d(TAG, "exported " + exportedNotes + " notes");
        super.onDestroy();
    }

    /** Exports one note per step and reschedules itself on the main thread. */
    private class ExportTask implements Runnable {
        private final String folder;

        ExportTask(String folder) {
            this.folder = folder;
        }

        @Override
        public void run() {
            if (NoteExporter.exportNext(folder)) {
                exportedNotes++;
                progressBar.setProgress(exportedNotes);
                ExportActivity.this.mainHandler.postDelayed(this, 50L);
            }
        }
    }
}
