// spec: canvas
// expect: verified
// harness: public-methods
// why: every child of the RecyclerView is drawn between its own save() and restore(); the
// `continue` for skipped children comes before the save, and the anonymous scroll listener
// only calls framework methods, so its code (not run) cannot matter.
package com.example.timeline.ui;

import android.graphics.Canvas;
import android.graphics.Paint;
import android.view.View;
import androidx.recyclerview.widget.RecyclerView;

/** Draws the vertical time line and a dot for every event row of a timeline list. */
public class TimelineItemDecoration extends RecyclerView.ItemDecoration {

    private static final int NO_POSITION = -1;

    private final Paint linePaint = new Paint(Paint.ANTI_ALIAS_FLAG);
    private final Paint dotPaint = new Paint(Paint.ANTI_ALIAS_FLAG);
    private final float lineX;
    private final float dotRadius;
    private final RecyclerView.OnScrollListener redrawOnScroll;

    public TimelineItemDecoration(float lineX, float dotRadius) {
        this.lineX = lineX;
        this.dotRadius = dotRadius;
        this.redrawOnScroll = new RecyclerView.OnScrollListener() {
            @Override
            public void onScrolled(RecyclerView recyclerView, int dx, int dy) {
                if (dy != 0) {
                    recyclerView.invalidateItemDecorations();
                }
            }
        };
    }

    public void attachTo(RecyclerView recyclerView) {
        recyclerView.addItemDecoration(this);
        recyclerView.addOnScrollListener(redrawOnScroll);
    }

    @Override
    public void onDrawOver(Canvas c, RecyclerView parent, RecyclerView.State state) {
        int childCount = parent.getChildCount();
        if (childCount == 0) {
            return;
        }
        float top = parent.getPaddingTop();
        float bottom = parent.getHeight() - parent.getPaddingBottom();
        c.drawLine(lineX, top, lineX, bottom, linePaint);

        for (int i = 0; i < childCount; i++) {
            View child = parent.getChildAt(i);
            int position = parent.getChildAdapterPosition(child);
            if (position == NO_POSITION || child.getVisibility() != View.VISIBLE) {
                continue;
            }
            c.save();
            c.translate(0f, child.getTop() + child.getTranslationY());
            c.clipRect(0f, 0f, lineX * 2f, (float) child.getHeight());
            drawDot(c, child.getHeight() / 2f, position == 0);
            c.restore();
        }
    }

    private void drawDot(Canvas c, float centerY, boolean highlighted) {
        float radius = highlighted ? dotRadius * 1.5f : dotRadius;
        c.drawCircle(lineX, centerY, radius, dotPaint);
    }
}
