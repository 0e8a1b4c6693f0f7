// spec: canvas
// expect: verified
// entry: XAxisRenderer.renderAxisLabels
// why: every non-HORIZONTAL case of the switch saves, and only non-HORIZONTAL labels are
// restored; a null orientation throws NPE at the switch, so every completed run is balanced.
package com.example.charts.axis;

import android.graphics.Canvas;
import android.graphics.Paint;
import android.util.Log;

public class XAxisRenderer {

    private static final String TAG = XAxisRenderer.class.getSimpleName();

    public enum LabelOrientation { HORIZONTAL, ROTATED, VERTICAL, STAGGERED }

    /** Geometry of the axis, computed during layout. */
    static class AxisGeometry {
        float left;
        float baseline;
        float labelSpacing;
        float staggerOffset;
    }

    private final Paint labelPaint = new Paint(Paint.ANTI_ALIAS_FLAG);
    private final AxisGeometry geometry = new AxisGeometry();
    private LabelOrientation orientation = LabelOrientation.HORIZONTAL;

    public void setLabelOrientation(LabelOrientation orientation) {
        this.orientation = orientation;
    }

    public void renderAxisLabels(Canvas c, String[] labels) {
        assert labels != null : "labels must be computed before drawing";
        if (labels.length == 0) {
            Log.d(TAG, "no labels to draw");
            return;
        }
        boolean odd = false;
        float x = geometry.left;
        for (int i = 0; i < labels.length; i++) {
            float y = geometry.baseline;
            switch (orientation) {
                case ROTATED:
                    c.save();
                    c.rotate(-45f, x, y);
                    break;
                case VERTICAL:
                    c.save();
                    c.rotate(-90f, x, y);
                    break;
                case STAGGERED:
                    c.save();
                    if (odd) {
                        y = y + geometry.staggerOffset;
                    }
                    break;
                case HORIZONTAL:
                default:
                    break;
            }
            c.drawText(labels[i], x, y, labelPaint);
            if (orientation != LabelOrientation.HORIZONTAL) {
                c.restore();
            }
            odd = !odd;
            x = x + geometry.labelSpacing;
        }
    }
}
