// spec: canvas
// expect: violation
// harness: public-methods
// why: draw() restores inside the try when there are too few points to plot and returns,
// and the finally block restores again: one save() is followed by two restore() calls.
package com.example.stocks.drawable;

import android.graphics.Canvas;
import android.graphics.ColorFilter;
import android.graphics.Paint;
import android.graphics.Path;
import android.graphics.PixelFormat;
import android.graphics.Rect;
import android.graphics.drawable.Drawable;

/** A small line chart of recent prices, used as the background of a quote row. */
public class SparklineDrawable extends Drawable {

    private final Paint strokePaint = new Paint(Paint.ANTI_ALIAS_FLAG);
    private final Path path = new Path();
    private float[] prices = new float[0];
    private Integer baselineColor;

    public void setPrices(float[] prices) {
        this.prices = prices;
        invalidateSelf();
    }

    public void setBaselineColor(Integer color) {
        this.baselineColor = color;
    }

    @Override
    public void draw(Canvas canvas) {
        Rect bounds = getBounds();
        canvas.save();
        try {
            canvas.clipRect(bounds);
            if (prices.length < 2) {
                // nothing to plot
                canvas.restore();
                return;
            }
            if (baselineColor != null) {
                strokePaint.setColor(baselineColor.intValue());
                canvas.drawLine(bounds.left, bounds.centerY(), bounds.right, bounds.centerY(), strokePaint);
            }
            new PathBuilder().build(bounds);
            canvas.drawPath(path, strokePaint);
        } finally {
            canvas.restore();
        }
    }

    /** Scales the prices of the enclosing drawable into its path. */
    class PathBuilder {
        void build(Rect bounds) {
            path.reset();
            float step = bounds.width() / (float) (prices.length - 1);
            for (int i = 0; i < prices.length; i++) {
                float y = bounds.bottom - prices[i] * bounds.height();
                if (i == 0) {
                    path.moveTo(bounds.left, y);
                } else {
                    path.lineTo(bounds.left + i * step, y);
                }
            }
        }
    }

    @Override
    public void setAlpha(int alpha) {
        strokePaint.setAlpha(alpha);
    }

    @Override
    public void setColorFilter(ColorFilter colorFilter) {
        strokePaint.setColorFilter(colorFilter);
    }

    @Override
    public int getOpacity() {
        return PixelFormat.TRANSLUCENT;
    }
}
