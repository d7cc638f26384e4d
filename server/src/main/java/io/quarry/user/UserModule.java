package io.quarry.user;

import io.quarry.appdb.Db;
import io.quarry.mail.Mailer;
import io.quarry.setting.Settings;
import java.time.Clock;
import java.util.function.BiConsumer;
import org.apache.ibatis.session.SqlSession;

/** The user module: people, groups and memberships, and invitation mails. */
public record UserModule(UserService users, GroupService groups, InviteMailer invites) {
    /**
     * @param onGroupCreated runs in the transaction that stores each new group (the data permissions module grants the
     *        group its defaults)
     */
    public static UserModule create(Db db, Settings settings, Mailer mailer, Clock clock,
            BiConsumer<SqlSession, Long> onGroupCreated) {
        UserService users = new UserService(db, clock);
        return new UserModule(users, new GroupService(db, users, onGroupCreated), new InviteMailer(settings, mailer));
    }
}
