/** `android.graphics.Camera`: a 3D transformation with its own save/restore stack; no event. */
class Camera {
    public void save() {
    }

    public void restore() {
    }

    public void rotateX(float deg) {
    }

    public void rotateY(float deg) {
    }

    public void applyToCanvas(Canvas canvas) {
    }
}
