package dev.cardcatalog.admin;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.core.HttpHeaders;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;
import org.jboss.resteasy.reactive.server.SimpleResourceInfo;

/**
 * A button of the admin page pressed with a CSRF token that is missing, expired (the cookie outlived, as
 * {@code quarkus.rest-csrf.cookie-max-age} says) or wrong: the CSRF filter refuses it with a bare 400 and does
 * nothing else. A person must not see that blank answer (SERVICE.md §7): it is turned into a redirect (303) to the
 * page with the notice "This page had expired, so nothing was done. Press the button again.", and the page then
 * sets a fresh cookie. The admin page's form actions never answer 400 themselves (they redirect with their
 * outcome), so a 400 without a body from one is the CSRF filter's. Credentials are checked before the token, so a
 * request without them or without the operator role still gets its 401 or 403.
 */
public class ExpiredForms {

    @ServerResponseFilter
    public void redirectToThePage(ContainerRequestContext request, ContainerResponseContext response,
            SimpleResourceInfo resource) {
        if (response.getStatus() == 400 && !response.hasEntity() && "POST".equals(request.getMethod())
                && resource != null && resource.getResourceClass() == AdminResource.class) {
            response.setStatus(303);
            response.getHeaders().putSingle(HttpHeaders.LOCATION,
                    AdminResource.back(AdminResource.EXPIRED, null, null, null).getLocation());
        }
    }
}
