/** Jackson's `StdSerializer`. */
abstract class StdSerializer<T> extends JsonSerializer<T> {
    protected final Class<T> _handledType;

    protected StdSerializer(Class<T> t) {
        _handledType = t;
    }
}
