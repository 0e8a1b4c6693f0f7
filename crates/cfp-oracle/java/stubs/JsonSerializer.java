/** Jackson's `JsonSerializer`. */
abstract class JsonSerializer<T> {
    public abstract void serialize(T value, JsonGenerator gen, SerializerProvider provider)
            throws java.io.IOException;
}
