// spec: canvas
// expect: verified
// entry: BadgeOverlayView.onDraw
// why: the badges are drawn by a lambda passed to forEach, and drawBadge saves and
// restores the canvas inside it; the lambda runs while forEach runs, balanced (before
// closures ran, this was `unknown`: the JVM agrees with `verified`).
package com.example.messenger.avatar;

import android.animation.ValueAnimator;
import android.content.Context;
import android.graphics.Canvas;
import android.graphics.Paint;
import android.util.AttributeSet;
import android.view.View;
import java.util.ArrayList;
import java.util.List;

/** An avatar overlay that shows unread-count badges around the picture, with a pulse. */
public class BadgeOverlayView extends View {

    static final class Badge {
        final int count;
        final float angle;

        Badge(int count, float angle) {
            this.count = count;
            this.angle = angle;
        }
    }

    private final Object badgeLock = new Object();
    private final List<Badge> badges = new ArrayList<>();
    private final Paint badgePaint = new Paint(Paint.ANTI_ALIAS_FLAG);
    private final Paint textPaint = new Paint(Paint.ANTI_ALIAS_FLAG);
    private final ValueAnimator pulse = ValueAnimator.ofFloat(1f, 1.2f);
    private float pulseScale = 1f;

    public BadgeOverlayView(Context context, AttributeSet attrs) {
        super(context, attrs);
        pulse.setRepeatCount(ValueAnimator.INFINITE);
        pulse.addUpdateListener(animation -> {
            pulseScale = (Float) animation.getAnimatedValue();
            invalidate();
        });
    }

    public void addBadge(int count, float angle) {
        synchronized (badgeLock) {
            badges.add(new Badge(count, angle));
        }
        postInvalidateOnAnimation();
    }

    @Override
    protected void onDraw(Canvas canvas) {
        super.onDraw(canvas);
        List<Badge> snapshot;
        synchronized (badgeLock) {
            if (badges.isEmpty()) {
                return;
            }
            snapshot = new ArrayList<>(badges);
        }
        float radius = Math.min(getWidth(), getHeight()) / 2f;
        canvas.save();
        canvas.translate(getWidth() / 2f, getHeight() / 2f);
        snapshot.forEach(badge -> drawBadge(canvas, badge, radius));
        canvas.restore();
    }

    private void drawBadge(Canvas canvas, Badge badge, float radius) {
        canvas.save();
        canvas.rotate(badge.angle);
        canvas.translate(radius, 0f);
        canvas.scale(pulseScale, pulseScale);
        canvas.drawCircle(0f, 0f, radius / 4f, badgePaint);
        canvas.drawText(String.valueOf(badge.count), 0f, 0f, textPaint);
        canvas.restore();
    }
}
