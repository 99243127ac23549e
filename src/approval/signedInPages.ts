import type { HttpResponseInit } from '@azure/functions';

import { html } from '../web/html';
import { htmlPage } from '../web/pageResponse';
import { APPROVAL_ROUTE } from './approvalLink';
import type { SignedInRefusal } from './signedInApprover';

/**
 * The pages of APPROVAL_REQUIRE_SIGNED_IN: not signed in (401, with the App Service sign-in link that
 * comes back to this approval), or signed in as someone not in APPROVERS (403). Both change nothing.
 */
export function signedInRefusalPage(
  refusal: SignedInRefusal,
  args: { readonly token: string; readonly principal?: string },
): HttpResponseInit {
  const back = `/api/${APPROVAL_ROUTE}?token=${encodeURIComponent(args.token)}`;
  const signIn = `/.auth/login/aad?post_login_redirect_uri=${encodeURIComponent(back)}`;
  if (refusal === 'not-signed-in')
    return htmlPage(
      401,
      'Sign-in required',
      html`<section class="card notice error" data-refusal="not-signed-in">
        <p>
          Restarts must be approved by a signed-in approver. Sign in with your work account, then approve on
          the page you come back to. Nothing was changed.
        </p>
        <p><a href="${signIn}">Sign in and come back to this approval</a></p>
      </section>`,
    );
  return htmlPage(
    403,
    'Not an approver',
    html`<section class="card notice error" data-refusal="not-an-approver">
      <p>
        You are signed in as <strong>${args.principal ?? 'unknown'}</strong>, who is not in this app's
        approvers list (APPROVERS). Nothing was changed. Ask an approver, or sign in with another account.
      </p>
      <p>
        <a href="/.auth/logout?post_logout_redirect_uri=${encodeURIComponent(signIn)}"
          >Sign in as someone else</a
        >
      </p>
    </section>`,
  );
}
