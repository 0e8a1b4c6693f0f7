// spec: wakelock
// expect: verified
// harness: public-methods
// why: each onStartCommand() holds the partial wake lock only around the synchronous scan
// and releases it in a finally block; a command without a folder returns before acquiring.
package com.example.media.scan;

import android.app.Service;
import android.content.Context;
import android.content.Intent;
import android.os.IBinder;
import android.os.PowerManager;
import android.util.Log;
import java.io.File;

public class MediaScanService extends Service {
    private static final String TAG = "MediaScanService";
    public static final String EXTRA_FOLDER = "com.example.media.scan.FOLDER";
    public static final String EXTRA_DEPTH = "com.example.media.scan.DEPTH";

    private PowerManager.WakeLock wakeLock;
    private int filesSeen;

    @Override
    public void onCreate() {
        super.onCreate();
        PowerManager pm = (PowerManager) getSystemService(Context.POWER_SERVICE);
        wakeLock = pm.newWakeLock(PowerManager.PARTIAL_WAKE_LOCK, TAG);
    }

    @Override
    public int onStartCommand(Intent intent, int flags, int startId) {
        String folder = intent == null ? null : intent.getStringExtra(EXTRA_FOLDER);
        if (folder == null) {
            Log.w(TAG, "nothing to scan");
            stopSelf(startId);
            return START_NOT_STICKY;
        }
        Integer depth = (Integer) intent.getSerializableExtra(EXTRA_DEPTH);
        int maxDepth = depth != null ? depth.intValue() : 4;

        wakeLock.acquire();
        try {
            filesSeen = 0;
            scan(new File(folder), maxDepth);
            Log.i(TAG, "scanned " + filesSeen + " files in " + folder);
        } finally {
            wakeLock.release();
        }
        stopSelf(startId);
        return START_NOT_STICKY;
    }

    @Override
    public IBinder onBind(Intent intent) {
        return null;
    }

    private void scan(File dir, int depth) {
        if (depth == 0 || !dir.isDirectory()) {
            return;
        }
        File[] children = dir.listFiles();
        if (children == null) {
            return;
        }
        for (File child : children) {
            if (child.isDirectory()) {
                scan(child, depth - 1);
            } else {
                filesSeen++;
            }
        }
    }
}
