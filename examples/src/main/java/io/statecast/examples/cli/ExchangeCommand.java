package io.statecast.examples.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** Placeholder until the substrate exchange lands. */
@Command(name = "exchange", description = "Exchange messages between two adapters over a substrate and report counts.")
final class ExchangeCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        System.out.println("not yet implemented");
        return 1;
    }
}
