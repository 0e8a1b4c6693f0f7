import android.graphics.Canvas;
import android.graphics.Picture;
import android.graphics.drawable.Drawable;
import android.graphics.drawable.PictureDrawable;
import com.facebook.litho.MatrixDrawable;

/** Matrix drawables mounted in a chain, then drawn. */
public class Harness {
    public static void main(String[] args) {
        Canvas c = new Canvas();
        PictureDrawable inner = new SavingDrawable(new Picture());
        MatrixDrawable<Drawable> d = new MatrixDrawable<>();
        d.mount(inner);
        int n = Input.readInt();
        if (n <= 0) {
            return;
        }
        for (int i = 0; i < n; ++i) {
            MatrixDrawable<Drawable> curr = new MatrixDrawable<>();
            d = new MatrixDrawable<>();
            d.mount(curr);
        }
        inner.draw(c);
        d.draw(c);
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
