package org.mpjlite.stress.broken;

import org.mpjlite.stress.mailbox.MailboxNonOvertaking;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * MUST FAIL: {@link MailboxNonOvertaking} run on the broken {@link LifoMailbox}. Whenever both messages
 * arrive before the receives are posted, the first receive gets the second message ({@code 2, 1, 0},
 * FORBIDDEN). The build fails if jcstress does not report this test as failed.
 */
@JCStressTest
@State
public class LifoMailboxNonOvertaking extends MailboxNonOvertaking {
    public LifoMailboxNonOvertaking() {
        super(LifoMailbox::new);
    }

    @Actor
    public void sender() {
        send();
    }

    @Actor
    public void owner() {
        receive();
    }

    @Arbiter
    public void arbiter(III_Result r) {
        check(r);
    }
}
