// spec: wakelock
// expect: verified
// entry: PhotoBackupWorker.doWork
// why: the wake lock is made non-reference-counted and re-acquired before each batch to
// extend the work window; without reference counting the single release() in the finally
// block ends it, which is exactly the protocol's `setReferenceCounted acquire+ release`.
package com.example.photos.backup;

import android.content.Context;
import android.os.PowerManager;
import android.util.Log;
import androidx.work.Worker;
import androidx.work.WorkerParameters;
import java.util.List;

public class PhotoBackupWorker extends Worker {
    private static final String TAG = "PhotoBackup";
    private static final int BATCH_SIZE = 25;

    public PhotoBackupWorker(Context context, WorkerParameters params) {
        super(context, params);
    }

    @Override
    public Result doWork() {
        List<String> pending = BackupQueue.pendingUris(getApplicationContext());
        if (pending.isEmpty()) {
            return Result.success();
        }
        PowerManager pm = (PowerManager) getApplicationContext().getSystemService(Context.POWER_SERVICE);
        PowerManager.WakeLock wl = pm.newWakeLock(PowerManager.PARTIAL_WAKE_LOCK, "photos:backup");
        wl.setReferenceCounted(false);
        wl.acquire();
        int uploaded = 0;
        try {
            for (int start = 0; start < pending.size(); start += BATCH_SIZE) {
                if (isStopped()) {
                    Log.i(TAG, "stopped after " + uploaded + " uploads");
                    return Result.retry();
                }
                // Re-arm the lock for every batch; harmless without reference counting.
                wl.acquire();
                int end = Math.min(start + BATCH_SIZE, pending.size());
                uploaded += Uploader.uploadBatch(pending.subList(start, end));
            }
        } finally {
            wl.release();
        }
        Log.i(TAG, "uploaded " + uploaded + " photos");
        return Result.success();
    }
}
