/** Vaccines, immunoglobulins, emergency and anaesthetic drugs, fluids. Row format: ../formulary.ts. */
export const VACCINES_EMERGENCY = `
tetanus toxoid||tetanus vaccine,tetanus injection,tt injection,tt|injection|0.5ml|tetvac
tetanus and diphtheria toxoid||td vaccine,td injection,tetanus diphtheria vaccine,tetanus and diphtheria vaccine|injection|0.5ml|tenivac
tetanus, diphtheria and acellular pertussis vaccine (tdap)||tdap vaccine,tdap,tetanus diphtheria and pertussis vaccine,tetanus diphtheria acellular pertussis vaccine|injection|0.5ml|boostrix,adacel
dtap vaccine||dtap,dpt vaccine,dpt|injection|0.5ml|infanrix,daptacel
dtap ipv vaccine||dtap ipv|injection|0.5ml|kinrix,quadracel
hexavalent vaccine||dtap ipv hib hepatitis b vaccine|injection|0.5ml|hexaxim,infanrix hexa,vaxelis
pentavalent vaccine||dtwp hib hepatitis b vaccine|injection|0.5ml|pentavac,easyfive
mmr vaccine||mmr,measles mumps rubella vaccine|injection|0.5ml|priorix,tresivac,m m r ii
mmrv vaccine||mmrv,measles mumps rubella varicella vaccine|injection|0.5ml|proquad,priorix tetra
measles rubella vaccine||mr vaccine|injection|0.5ml|
varicella vaccine||chickenpox vaccine,chicken pox vaccine|injection|0.5ml|varivax,varilrix
zoster vaccine||shingles vaccine,recombinant zoster vaccine|injection|0.5ml|shingrix
hepatitis b vaccine||hep b vaccine|injection|10mcg,20mcg|engerix b,genevac b,recombivax hb,heplisav b
hepatitis a vaccine||hep a vaccine|injection|720units,1440units|havrix,vaqta,avaxim
typhoid conjugate vaccine||typhoid vaccine,tcv|injection|25mcg|typbar tcv
typhoid polysaccharide vaccine||vi polysaccharide vaccine|injection|25mcg|typhim vi,typherix
human papillomavirus vaccine||hpv vaccine|injection|0.5ml|gardasil,gardasil 9,cervarix,cervavac
pneumococcal conjugate vaccine||pcv,pcv13,pcv20,pneumococcal vaccine|injection|0.5ml|prevnar 13,prevenar 13,prevnar 20,vaxneuvance,synflorix
pneumococcal polysaccharide vaccine||ppsv23|injection|0.5ml|pneumovax 23
haemophilus influenzae type b vaccine||hib vaccine|injection|0.5ml|acthib,hiberix
meningococcal vaccine||meningococcal conjugate vaccine|injection|0.5ml|menactra,menveo,menquadfi
rotavirus vaccine|||oral drops||rotarix,rotateq,rotavac,rotasiil
oral polio vaccine||opv,polio drops|oral drops||
inactivated polio vaccine||ipv|injection|0.5ml|ipol
bcg vaccine||bcg|injection|0.1ml|
influenza vaccine||flu vaccine,flu shot|injection|0.5ml|vaxigrip,vaxigrip tetra,influvac,influvac tetra,fluarix,fluzone,flucelvax
rabies vaccine||anti rabies vaccine|injection|1ml,0.1ml|rabipur,verorab,abhayrab,imovax rabies
rabies immunoglobulin||anti rabies serum|injection||
tetanus immunoglobulin|||injection|250IU|
anti d immunoglobulin||anti d,rho d immune globulin|injection|300mcg|rhogam,rhophylac
covid 19 vaccine||covid vaccine|injection||covishield,covaxin,comirnaty,spikevax
respiratory syncytial virus vaccine||rsv vaccine|injection||arexvy,abrysvo
epinephrine||adrenaline|injection,auto injector|0.15,0.3,0.5,1mg/ml|epipen,epipen jr,auvi q
ringer lactate||ringer's lactate,lactated ringer's,rl|infusion||
dextrose normal saline||dns|infusion||
`;
