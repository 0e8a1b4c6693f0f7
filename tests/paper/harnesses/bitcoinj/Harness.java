import java.net.InetAddress;
import java.nio.ByteBuffer;
import org.bitcoinj.core.AbstractBlockChain;
import org.bitcoinj.core.MessageSerializer;
import org.bitcoinj.core.NetworkParameters;
import org.bitcoinj.core.Peer;
import org.bitcoinj.core.PeerAddress;
import org.bitcoinj.core.VersionMessage;
import org.bitcoinj.params.MainNetParams;

/** A peer that processes any number of messages of any size. */
public class Harness extends Peer {
    NetworkParameters params;

    public Harness(NetworkParameters params, VersionMessage ver, PeerAddress remoteAddress,
            AbstractBlockChain chain) {
        super(params, ver, remoteAddress, chain);
        this.params = params;
    }

    public void run() throws Exception {
        MessageSerializer serializer = params.getDefaultSerializer();
        int reps = Input.readInt();
        int size = Input.readInt();
        if (reps <= 0 || size <= 0) {
            return;
        }
        for (int i = 0; i < reps; i++) {
            ByteBuffer b = ByteBuffer.allocate(size);
            processMessage(serializer.deserialize(b));
        }
    }

    public static void main(String[] args) throws Exception {
        NetworkParameters params = MainNetParams.get();
        Harness h = new Harness(params, new VersionMessage(params, 0),
                new PeerAddress(params, InetAddress.getByName("")), null);
        h.run();
    }
}
