package io.weir.streams.internals.config;

/**
 * The versions of Weir's group protocol (the user data of {@code WeirPartitionAssignor}) this release
 * speaks, and how they evolve so that instances of adjacent releases share one group.
 *
 * <p>Every message starts with a <em>layout</em> (a short): how the fields that follow are laid out.
 * Layout 5 is the one releases before version probing wrote and read; they refuse any other layout and
 * ignore bytes after the fields they know. A later protocol version therefore keeps layout 5 and appends
 * what it adds: a trailer that starts with its version (a short), then that version's fields, each
 * version's after the previous one's. A reader reads the fields it knows and skips the rest, so every
 * member reads every other member's messages whatever its release.
 *
 * <p>The leader of a rebalance computes the group's <em>version in use</em>: the lowest version any
 * member (itself included) speaks, a member without a trailer speaking 5. It writes it in every
 * assignment's trailer, and members use only what that version has. A group with a member of an older
 * release thus speaks the older version; once that member is gone, the next rebalance (its leaving or
 * the upgraded instance's joining makes one) switches every member to the newer version, without a
 * restart. {@code upgrade.from} holds an instance at an older version, for a group that must stay able
 * to take instances of that release back (a rollback).
 *
 * <p>A release that must change the layout itself (not only append) writes the new layout only once the
 * version in use allows it. A leader that meets a layout it does not know (a newer release speaking
 * ahead of it) gives that member back the tasks whose partitions it owns and asks it to rejoin; the
 * newer member then speaks a layout the leader reads. That is version probing: no member stops
 * processing, and the group never fails because two releases meet.
 */
public final class GroupProtocol {

    /** The layout every message of this release starts with, and the version of a message without a trailer. */
    public static final int LAYOUT = 5;

    /** The oldest version this release speaks: that of releases before version probing. */
    public static final int OLDEST = 5;

    /** The newest version this release speaks: layout 5 with a trailer giving the version. */
    public static final int LATEST = 6;

    private GroupProtocol() {}
}
