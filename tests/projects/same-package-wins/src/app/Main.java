package app;

/** No import: `Guard` is app.Guard, the one of this package, which never unlocks. */
public class Main {
    public static void main(String[] args) {
        Guard g = new Guard();
        g.run(() -> System.out.println("inside"));
    }
}
