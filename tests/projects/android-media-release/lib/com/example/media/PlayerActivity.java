package com.example.media;

import android.app.Activity;
import android.content.Context;
import android.media.MediaCodec;
import android.os.Bundle;
import android.os.PowerManager;
import android.view.Surface;

/**
 * Holds a wake lock while in the foreground and releases its media objects on pause; its
 * frame comes from the project's `Frames`.
 */
public class PlayerActivity extends Activity {
    private PowerManager.WakeLock wakeLock;
    private MediaCodec codec;
    private Surface surface;
    private final FrameQueue<Frame> frames = new FrameQueue<>();
    private Frame current;

    @Override
    protected void onCreate(Bundle savedInstanceState) {
        super.onCreate(savedInstanceState);
        PowerManager pm = (PowerManager) getSystemService(Context.POWER_SERVICE);
        wakeLock = pm.newWakeLock(PowerManager.PARTIAL_WAKE_LOCK, "media");
        frames.offer(Frames.first(pm));
    }

    @Override
    protected void onResume() {
        super.onResume();
        wakeLock.acquire();
        current = Checks.checkNotNull(frames.peek());
    }

    @Override
    protected void onPause() {
        // `release()` of classes that are never wake locks: no event.
        if (codec != null) {
            codec.release();
            codec = null;
        }
        if (surface != null) {
            surface.release();
        }
        // A type variable's and a generic method's `release()`: the program's `Frame`.
        Checks.checkNotNull(current).release();
        frames.flush();
        wakeLock.release();
        super.onPause();
    }
}
