// spec: canvas
// expect: verified
// entry: GaugeView.onDraw
// why: onDraw returns early only before its first save(), each tick of the loop is drawn
// between its own save()/restore(), and the switch over the style restores on every case.
package com.example.widget.gauge;

import android.content.Context;
import android.graphics.Canvas;
import android.graphics.Paint;
import android.graphics.RectF;
import android.view.View;
import java.util.ArrayList;
import java.util.List;

/** A circular gauge with tick marks and an optional caption, drawn in one of three styles. */
public class GaugeView extends View {

    public enum Style { ARC, NEEDLE, SEGMENTS }

    private static final float START_ANGLE = 135f;
    private static final float SWEEP_ANGLE = 270f;

    private final Paint trackPaint = new Paint(Paint.ANTI_ALIAS_FLAG);
    private final Paint tickPaint = new Paint(Paint.ANTI_ALIAS_FLAG);
    private final RectF arcBounds = new RectF();
    private final List<Integer> tickAngles = new ArrayList<>();
    private Style style = Style.ARC;
    private Double value = 0.0;
    private String caption;

    public GaugeView(Context context) {
        super(context);
        for (int i = 0; i <= 10; i++) {
            tickAngles.add(Integer.valueOf(i * 27));
        }
    }

    public void setStyle(Style style) {
        this.style = style;
        invalidate();
    }

    @Override
    protected void onDraw(Canvas canvas) {
        super.onDraw(canvas);
        int width = getWidth() - getPaddingLeft() - getPaddingRight();
        int height = getHeight() - getPaddingTop() - getPaddingBottom();
        if (width <= 0 || height <= 0) {
            return; // not laid out yet
        }
        float cx = getPaddingLeft() + width / 2f;
        float cy = getPaddingTop() + height / 2f;

        canvas.save();
        canvas.translate(cx, cy);
        switch (style) {
            case ARC:
                drawTrack(canvas, Math.min(width, height) / 2f);
                break;
            case NEEDLE:
                canvas.rotate(START_ANGLE + (float) (SWEEP_ANGLE * value.doubleValue()));
                canvas.drawLine(0f, 0f, width / 2f, 0f, tickPaint);
                break;
            case SEGMENTS:
            default:
                drawTrack(canvas, Math.min(width, height) / 2.5f);
                break;
        }
        canvas.restore();

        for (Integer angle : tickAngles) {
            int degrees = angle.intValue();
            canvas.save();
            canvas.rotate(START_ANGLE + degrees, cx, cy);
            canvas.drawLine(cx + width / 2.2f, cy, cx + width / 2f, cy, tickPaint);
            canvas.restore();
        }

        if (caption != null) {
            new CaptionPainter().paint(canvas, cx, cy);
        }
    }

    private void drawTrack(Canvas canvas, float radius) {
        arcBounds.set(-radius, -radius, radius, radius);
        canvas.drawArc(arcBounds, START_ANGLE, SWEEP_ANGLE, false, trackPaint);
    }

    /** Draws the caption under the centre, using the gauge's own paint and caption. */
    class CaptionPainter {
        void paint(Canvas canvas, float cx, float cy) {
            String text = GaugeView.this.caption;
            canvas.save();
            canvas.translate(0f, tickPaint.getTextSize());
            canvas.drawText(text, cx, cy, tickPaint);
            canvas.restore();
        }
    }
}
