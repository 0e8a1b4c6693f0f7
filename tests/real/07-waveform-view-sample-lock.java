// spec: lock
// expect: verified
// harness: public-methods
// why: the audio thread and the UI thread share the sample buffer under one Lock; every
// public entry point and onDraw() unlock in a finally block, and the Runnable posted to the
// UI thread only calls framework methods, so skipping its body loses nothing.
package com.example.audio.widget;

import android.content.Context;
import android.graphics.Canvas;
import android.graphics.Paint;
import android.util.AttributeSet;
import android.view.MotionEvent;
import android.view.View;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;

public class WaveformView extends View {
    private static final String TAG = WaveformView.class.getSimpleName();
    private static final int MAX_SAMPLES = 4096;

    private final Lock sampleLock = new ReentrantLock();
    private final Paint wavePaint = new Paint(Paint.ANTI_ALIAS_FLAG);
    private final float[] samples = new float[MAX_SAMPLES];
    private int sampleCount;
    private int writeIndex;
    private boolean frozen;

    public WaveformView(Context context, AttributeSet attrs) {
        super(context, attrs);
        wavePaint.setStrokeWidth(2f);
    }

    /** Called from the recording thread with a chunk of normalized PCM samples. */
    public void appendSamples(float[] chunk, int length) {
        if (chunk == null || length <= 0) {
            return;
        }
        assert length <= chunk.length : "length exceeds the chunk";
        sampleLock.lock();
        try {
            if (frozen) {
                return;
            }
            for (int i = 0; i < length; i++) {
                samples[writeIndex] = chunk[i];
                writeIndex = (writeIndex + 1) % MAX_SAMPLES;
                if (sampleCount < MAX_SAMPLES) {
                    sampleCount++;
                }
            }
        } finally {
            sampleLock.unlock();
        }
        post(new Runnable() {
            @Override
            public void run() {
                invalidate();
            }
        });
    }

    public void clear() {
        synchronized (this) {
            sampleLock.lock();
            try {
                sampleCount = 0;
                writeIndex = 0;
            } finally {
                sampleLock.unlock();
            }
        }
        postInvalidate();
    }

    @Override
    public boolean onTouchEvent(MotionEvent event) {
        if (event.getAction() != MotionEvent.ACTION_DOWN) {
            return super.onTouchEvent(event);
        }
        sampleLock.lock();
        frozen = !frozen;
        sampleLock.unlock();
        return true;
    }

    @Override
    protected void onDraw(Canvas canvas) {
        super.onDraw(canvas);
        int width = getWidth();
        float midY = getHeight() / 2f;
        sampleLock.lock();
        try {
            int n = Math.min(sampleCount, width);
            for (int x = 1; x < n; x++) {
                canvas.drawLine(x - 1, midY + samples[x - 1] * midY, x, midY + samples[x] * midY, wavePaint);
            }
        } finally {
            sampleLock.unlock();
        }
    }
}
