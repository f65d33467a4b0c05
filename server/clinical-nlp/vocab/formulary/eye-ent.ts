/** Eye, ear, nose-throat and mouth preparations not listed with their systemic forms. Row format: ../formulary.ts. */
export const EYE_ENT = `
prednisolone acetate|||eye drops|0.12%,1%|pred forte,pred mild,omnipred
loteprednol|||eye drops,eye gel|0.2%,0.5%|lotepred,lotemax,alrex
fluorometholone|||eye drops|0.1%|fml,flarex
difluprednate|||eye drops|0.05%|durezol
timolol|||eye drops,eye gel|0.25%,0.5%|glucomol,timolet,timoptic,timoptic xe
latanoprost|||eye drops|0.005%|latoprost,xalatan,xelpros
bimatoprost|||eye drops|0.01%,0.03%|lumigan,careprost,latisse
travoprost|||eye drops|0.004%|travatan,travatan z
brimonidine|||eye drops,gel|0.1%,0.15%,0.2%,0.33%|alphagan,alphagan p,mirvaso
dorzolamide|||eye drops|2%|trusopt
brinzolamide|||eye drops|1%|azopt
dorzolamide + timolol|||eye drops||cosopt
brimonidine + timolol|||eye drops||combigan
latanoprost + timolol|||eye drops||xalacom
brinzolamide + brimonidine|||eye drops||simbrinza
pilocarpine|||eye drops|1%,2%,4%,1.25%|vuity
netarsudil|||eye drops|0.02%|rhopressa
cyclopentolate|||eye drops|0.5%,1%|cyclogyl
tropicamide|||eye drops|0.5%,1%|mydriacyl
tropicamide + phenylephrine|||eye drops||
atropine|||eye drops,injection,tablet|0.01%,0.5%,1%,0.6|atropen
homatropine|||eye drops|2%,5%|
nepafenac|||eye drops|0.1%,0.3%|nevanac,ilevro
bromfenac|||eye drops|0.07%,0.09%|prolensa
carboxymethylcellulose||artificial tears,lubricating eye drops,lubricant eye drops,cmc|eye drops|0.5%,1%|refresh tears,refresh liquigel,refresh plus,optive,~refresh
hydroxypropyl methylcellulose||hypromellose,hpmc|eye drops|0.3%|genteal
polyethylene glycol + propylene glycol|||eye drops||systane,systane ultra
sodium hyaluronate|||eye drops,injection|0.1%,0.18%|hylo
cyclosporine|cyclosporine|ciclosporin,cyclosporin|eye drops,capsule|0.05%,0.09%,0.1%,25,50,100|restasis,cequa,neoral,sandimmun
lifitegrast|||eye drops|5%|xiidra
naphazoline + pheniramine|||eye drops||naphcon a,visine a
tetrahydrozoline|||eye drops|0.05%|visine
chloramphenicol + dexamethasone|||eye drops||
carbamide peroxide|||ear drops|6.5%|debrox
benzocaine|||lozenge,gel,spray|20%|orajel
choline salicylate|||gel|8.7%|
sodium fluoride|||toothpaste,varnish|1.1%|prevident
propylene glycol|||eye drops||
naphazoline|||eye drops,nasal drops|0.012%,0.1%|
`;
