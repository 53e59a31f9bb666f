package dev.cardcatalog.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP proxy on a port of its own in front of a server (PostgreSQL), that a test can cut and restore: a cut closes
 * every connection through it and refuses new ones, as a stopped server does; a restore listens again on the same
 * port. A test points the service at {@link #port()} instead of the server's.
 */
public final class TcpProxy implements AutoCloseable {

    private final String targetHost;
    private final int targetPort;
    private final int port;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile ServerSocket listener;

    private TcpProxy(String targetHost, int targetPort, int port) {
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        this.port = port;
    }

    /**
     * A proxy to {@code targetHost:targetPort} on a free local port, listening: the port is the one the system gives
     * its first listener, so no other process can take it between choosing and binding.
     */
    public static TcpProxy start(String targetHost, int targetPort) {
        ServerSocket first;
        try {
            first = new ServerSocket();
            first.setReuseAddress(true);
            first.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        } catch (IOException e) {
            throw new UncheckedIOException("could not listen on a free port", e);
        }
        TcpProxy proxy = new TcpProxy(targetHost, targetPort, first.getLocalPort());
        proxy.listen(first);
        return proxy;
    }

    public int port() {
        return port;
    }

    /** Closes every connection through the proxy and stops listening: connecting is refused until restored. */
    public synchronized void cut() {
        ServerSocket open = listener;
        listener = null;
        closeQuietly(open);
        sockets.forEach(TcpProxy::closeQuietly);
        sockets.clear();
    }

    /** Listens again on the same port. */
    public synchronized void restore() {
        if (listener != null) {
            return;
        }
        try {
            ServerSocket socket = new ServerSocket();
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            listen(socket);
        } catch (IOException e) {
            throw new UncheckedIOException("could not listen on " + port, e);
        }
    }

    private synchronized void listen(ServerSocket socket) {
        listener = socket;
        Thread accepting = new Thread(() -> accept(socket), "tcp-proxy-" + port);
        accepting.setDaemon(true);
        accepting.start();
    }

    private void accept(ServerSocket socket) {
        while (!socket.isClosed()) {
            Socket client;
            try {
                client = socket.accept();
            } catch (IOException closed) {
                return;
            }
            try {
                Socket server = new Socket(targetHost, targetPort);
                sockets.add(client);
                sockets.add(server);
                pipe(client, server);
                pipe(server, client);
            } catch (IOException e) {
                closeQuietly(client);
            }
        }
    }

    private void pipe(Socket from, Socket to) {
        Thread copying = new Thread(() -> {
            byte[] buffer = new byte[16 * 1024];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                for (int read; (read = in.read(buffer)) >= 0; ) {
                    out.write(buffer, 0, read);
                    out.flush();
                }
            } catch (SocketException closed) {
                // cut, or the other side hung up
            } catch (IOException e) {
                // the same, reported otherwise
            } finally {
                closeQuietly(from);
                closeQuietly(to);
                sockets.remove(from);
                sockets.remove(to);
            }
        }, "tcp-proxy-pipe");
        copying.setDaemon(true);
        copying.start();
    }

    @Override
    public void close() {
        cut();
    }

    private static void closeQuietly(java.io.Closeable closeable) {
        if (closeable == null) {
            return;
        }
        try {
            closeable.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }
}
