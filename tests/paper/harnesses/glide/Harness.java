import android.graphics.Canvas;
import android.graphics.Picture;
import android.graphics.drawable.PictureDrawable;
import com.bumptech.glide.request.target.FixedSizeDrawable;

/** Fixed-size drawables wrapping a drawable that saves and restores, drawn in a loop. */
public class Harness {
    public static void main(String[] args) {
        Canvas c = new Canvas();
        PictureDrawable inner = new SavingDrawable(new Picture());
        int width = Input.readInt();
        int height = Input.readInt();
        int n = Input.readInt();
        if (width <= 0 || height <= 0 || n <= 0) {
            return;
        }
        for (int i = 0; i < n; ++i) {
            FixedSizeDrawable d1 = new FixedSizeDrawable(inner, width, height);
            FixedSizeDrawable d2 = new FixedSizeDrawable(d1, width, height);
            d2.draw(c);
            d1.draw(c);
        }
    }

    private static class SavingDrawable extends PictureDrawable {
        SavingDrawable(Picture p) {
            super(p);
        }

        @Override
        public void draw(Canvas c) {
            c.save();
            super.draw(c);
            c.restore();
        }
    }
}
